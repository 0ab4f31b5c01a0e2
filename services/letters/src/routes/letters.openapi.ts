import { OpenAPIRegistry, generateOpenApi } from '@register/service-kit';

/** No routes yet: the description grows with the brief and org-template routers. */
export function lettersOpenApi(): object {
  return generateOpenApi(new OpenAPIRegistry(), 'Letters service');
}
